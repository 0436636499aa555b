/** The API profiles the emulator serves (`--api`): its own module, so the CLI names them without loading the emulator. */
export const API_PROFILES = ['seed', 'hyperdx', 'clickstack-cloud'] as const;
export type ApiProfile = (typeof API_PROFILES)[number];
