import { randomInt, randomUUID } from 'node:crypto';

/** A source of random numbers: seeded (reproducible) or not. */
export interface Random {
  /** A uniformly distributed unsigned 32-bit integer. */
  uint32(): number;
  /** A float in [0, 1). */
  next(): number;
}

/**
 * mulberry32: a tiny, fast PRNG with a 32-bit state. Good enough for fault injection and ids in a test
 * server; not for anything secret.
 */
export function createSeededRandom(seed: number): Random {
  let a = seed >>> 0;
  const uint32 = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
  return { uint32, next: () => uint32() / 4294967296 };
}

/**
 * Derives an independent stream from one seed, so that (say) turning on a fail rate does not change the ids
 * the emulator assigns. `stream` is a small constant per use.
 */
export function deriveSeed(seed: number, stream: number): number {
  // splitmix32-style finaliser of (seed, stream).
  let z = (Math.imul(seed >>> 0, 0x9e3779b1) + Math.imul(stream + 1, 0x85ebca6b)) >>> 0;
  z = Math.imul(z ^ (z >>> 16), 0x7feb352d) >>> 0;
  z = Math.imul(z ^ (z >>> 15), 0x846ca68b) >>> 0;
  return (z ^ (z >>> 16)) >>> 0;
}

/** A random 32-bit seed, for when the caller gave none. */
export function randomSeed(): number {
  return randomInt(0, 2 ** 32 - 1);
}

function hex8(n: number): string {
  return n.toString(16).padStart(8, '0');
}

/**
 * MongoDB ObjectIds as one server process makes them (24 lowercase hex characters; HyperDX ids are these): 4
 * bytes of seconds since the epoch, 5 random bytes drawn once for the process, and a 3-byte counter that
 * starts anywhere and counts up (wrapping). Ids made in one second by one process are ordered by the counter,
 * which steward's choice of the copy to keep after a race relies on (src/apply/oldest.ts).
 */
export function objectIds(rng: Random): (now: Date) => string {
  const process = hex8(rng.uint32()) + hex8(rng.uint32()).slice(0, 2);
  let counter = rng.uint32() & 0xffffff;
  return (now) => {
    const seconds = Math.floor(now.getTime() / 1000) >>> 0;
    counter = (counter + 1) & 0xffffff;
    return hex8(seconds) + process + counter.toString(16).padStart(6, '0');
  };
}

/** A version 4 UUID drawn from `rng` (reproducible with a seeded rng). */
export function uuidV4(rng: Random): string {
  const a = hex8(rng.uint32());
  const b = hex8(rng.uint32());
  const c = hex8(rng.uint32());
  const d = hex8(rng.uint32());
  const variant = ((parseInt(c[0]!, 16) & 0x3) | 0x8).toString(16);
  return `${a}-${b.slice(0, 4)}-4${b.slice(5, 8)}-${variant}${c.slice(1, 4)}-${c.slice(4, 8)}${d}`;
}

/** A fresh UUID v4 from the platform (used for request ids when no seed was given). */
export const platformUuid: () => string = randomUUID;
