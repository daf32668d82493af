// The schema of an id in a path (`{handle}`, `{jobId}`, `{workflowId}`, `{approvalId}`): any text. An id
// the service never issued — too long, a NUL byte, the wrong shape — is not a malformed request but an
// unknown resource, and only the feature can answer that (its own 404, the same bytes as for any other
// unknown id); the storage port keeps such ids from ever reaching a query (with-storable-keys.ts). So
// is an id whose %-escapes do not decode to text (decodable-url.ts hands it to its route).
import { Type } from '../vendor/typebox.js';

export const PathId = (description: string) => Type.String({ description: `${description} Any other text, and any id whose %-escapes do not decode to UTF-8 text, is an unknown id.` });
