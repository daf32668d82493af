// The names of a caller's own datasets (DESIGN.md §19): `[a-z0-9][a-z0-9-]{0,63}`, and how a run names
// one in `datasets`: `mine/<name>` (its latest version) or `mine/<name>@<version>`. A leaf module: the
// dataset loader routes names with it, and nothing here touches storage.

export const DATASET_NAME_PATTERN = '^[a-z0-9][a-z0-9-]{0,63}$';
const NAME = new RegExp(DATASET_NAME_PATTERN);
/** What a run's dataset name starts with when it names an own dataset. */
export const OWN_PREFIX = 'mine/';
/** A version as a run writes it: a positive integer without leading zeros. */
const VERSION = /^[1-9][0-9]{0,14}$/;

export function isDatasetName(name: string): boolean {
  return NAME.test(name);
}

/** Whether a run's dataset name is an own dataset's (then never a host file's: those have no `/`). */
export function isOwnDatasetName(runName: string): boolean {
  return runName.startsWith(OWN_PREFIX);
}

/** The dataset and version a run name stands for (null: latest), or undefined when it cannot name one. */
export function parseOwnDatasetName(runName: string): { readonly name: string; readonly version: number | null } | undefined {
  if (!isOwnDatasetName(runName)) return undefined;
  const rest = runName.slice(OWN_PREFIX.length);
  const at = rest.indexOf('@');
  const name = at === -1 ? rest : rest.slice(0, at);
  if (!isDatasetName(name)) return undefined;
  if (at === -1) return { name, version: null };
  const version = rest.slice(at + 1);
  return VERSION.test(version) ? { name, version: Number(version) } : undefined;
}
