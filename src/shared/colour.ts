import { styleText } from 'node:util';

/** The styles steward's outputs use. */
export type Style = 'red' | 'green' | 'yellow' | 'cyan' | 'gray' | 'dim' | 'bold';

/**
 * A painter for one output: `paint('red', text)` when colour is on, `text` as is when it is off. Whether colour
 * is on is decided once by the command line (NO_COLOR, FORCE_COLOR, a TTY), so node's own check of a stream is
 * turned off here: a renderer returns a string, it does not know where it goes.
 */
export function painter(enabled: boolean): (style: Style, text: string) => string {
  return enabled ? (style, text) => styleText(style, text, { validateStream: false }) : (_style, text) => text;
}
