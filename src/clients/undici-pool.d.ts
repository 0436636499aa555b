// undici's Pool by its own file: the package's index also loads fetch, WebSocket, cookies, caches and the
// mock agent, half a megabyte of bundled code every connecting command parsed and never ran. undici has no
// exports map, so the path is its published layout (the version is pinned in package.json).
declare module 'undici/lib/dispatcher/pool.js' {
  import { Pool } from 'undici';
  export default Pool;
}

// Its connector by its own file too (the Pool loads it already): the Pool's sockets are made through it, and
// interim.ts reads what comes in first.
declare module 'undici/lib/core/connect.js' {
  import { buildConnector } from 'undici';
  export default buildConnector;
}
