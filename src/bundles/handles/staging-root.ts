// Where uploads are received and staged: `BundleExecution:TempRoot`, or a `portcullis-bundles` folder
// in the system temp directory when it is empty (so the system temp directory itself is never the
// root, and a discovery path elsewhere under it does not overlap).
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export function stagingRootOf(tempRoot: string): string {
  return tempRoot.trim() === '' ? join(tmpdir(), 'portcullis-bundles') : resolve(tempRoot);
}
