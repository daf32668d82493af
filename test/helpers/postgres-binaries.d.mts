/** Gives the `postgres` OS user search permission on the directories above node_modules (root only). */
export function letPostgresReachBinaries(from?: string): Promise<string[]>;
