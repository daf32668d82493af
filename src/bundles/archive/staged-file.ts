// How every staged regular file is created, on whichever thread writes it: O_CREAT|O_EXCL|O_NOFOLLOW,
// so nothing is ever overwritten or written through a link, and readable by this user only.
import { constants } from 'node:fs';

export const STAGED_FILE_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;
export const STAGED_FILE_MODE = 0o600;
