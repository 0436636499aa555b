// undici's Pool by its own file: the package's index also loads fetch, WebSocket, cookies, caches and the
// mock agent, half a megabyte of bundled code every connecting command parsed and never ran. undici has no
// exports map, so the path is its published layout (the version is pinned in package.json).
declare module 'undici/lib/dispatcher/pool.js' {
  import { Pool } from 'undici';
  export default Pool;
}
