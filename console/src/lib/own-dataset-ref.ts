// How a run names one of my own datasets (DESIGN §19): `mine/<name>` (its latest version when the run
// starts) or `mine/<name>@<version>` (pinned); and a set of chosen dataset names with one of mine
// chosen anew, at a version or not at all. Host dataset names never start with `mine/`.
const PREFIX = 'mine/';

/** `version` null: the latest when the run starts. */
export function ownDatasetRef(name: string, version: number | null): string {
  return version === null ? `${PREFIX}${name}` : `${PREFIX}${name}@${version}`;
}

/** The own dataset a run's dataset name names, or null for a host dataset's name. */
export function parseOwnDatasetRef(ref: string): { readonly name: string; readonly version: number | null } | null {
  const match = /^mine\/([^@]+)(?:@(\d+))?$/.exec(ref);
  if (match === null) return null;
  return { name: match[1]!, version: match[2] === undefined ? null : Number(match[2]) };
}

/**
 * The chosen names with `name` chosen at `choice` (a version, or null for the latest) or left out
 * ('off'): an earlier choice of it is replaced where it stood, so the run's order stays as chosen.
 */
export function chooseOwnDataset(chosen: ReadonlySet<string>, name: string, choice: number | null | 'off'): Set<string> {
  const next: string[] = [];
  let placed = false;
  for (const ref of chosen) {
    if (parseOwnDatasetRef(ref)?.name !== name) next.push(ref);
    else if (!placed && choice !== 'off') {
      next.push(ownDatasetRef(name, choice));
      placed = true;
    }
  }
  if (!placed && choice !== 'off') next.push(ownDatasetRef(name, choice));
  return new Set(next);
}
