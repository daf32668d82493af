// Reads the settings files in layer order: appsettings.json and appsettings.{Environment}.json in
// the working directory when present, then every --config file, which must exist. Each becomes one
// raw layer; a file that cannot be read or parsed is a problem naming it, never a silent skip.
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseJsonc } from './parse-jsonc.js';
import { rawFromJson, type RawNode } from './raw-node.js';

export interface FileLayers {
  readonly layers: readonly RawNode[];
  readonly problems: readonly string[];
  readonly warnings: readonly string[];
}

/** `environmentNamed`: PORTCULLIS_ENVIRONMENT was set, so a missing file for it is probably a typo. */
export function readFileLayers(cwd: string, environment: string, configFiles: readonly string[], environmentNamed = false): FileLayers {
  const problems: string[] = [];
  const warnings: string[] = [];
  const candidates = [
    { label: 'appsettings.json', path: resolve(cwd, 'appsettings.json'), required: false },
    { label: `appsettings.${environment}.json`, path: resolve(cwd, `appsettings.${environment}.json`), required: false },
    ...configFiles.map((file) => ({ label: `--config ${file}`, path: resolve(cwd, file), required: true })),
  ];
  const layers: RawNode[] = [];
  for (const { label, path, required } of candidates) {
    const layer = readLayer(label, path, required, problems);
    if (layer !== undefined) layers.push(layer);
    else if (environmentNamed && label === candidates[1]!.label && problems.length === 0) warnings.push(missingEnvironmentFile(cwd, environment));
  }
  return { layers, problems, warnings };
}

function missingEnvironmentFile(cwd: string, environment: string): string {
  let present: string[] = [];
  try {
    present = readdirSync(cwd).filter((name) => /^appsettings\.[^.]+\.json$/i.test(name));
  } catch {
    // an unreadable working directory is reported by the layers that need it
  }
  const found = present.length === 0 ? '' : ` (found: ${present.join(', ')})`;
  return `PORTCULLIS_ENVIRONMENT is '${environment}' but there is no appsettings.${environment}.json in ${cwd}${found}; environment names are case-sensitive file names, so check its spelling`;
}

function readLayer(label: string, path: string, required: boolean, problems: string[]): RawNode | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' && !required) return undefined;
    problems.push(`${label}: ${code === 'ENOENT' ? 'file not found' : `cannot be read (${code ?? 'error'})`} (${path})`);
    return undefined;
  }
  let json: unknown;
  try {
    json = parseJsonc(text);
  } catch (error) {
    problems.push(`${label}: invalid JSON (${(error as Error).message})`);
    return undefined;
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json)) {
    problems.push(`${label}: must contain a JSON object`);
    return undefined;
  }
  return rawFromJson(json, label);
}
