// Reads the `.md`/`.txt` documents under one root: regular files only, never through a symlink
// (a link whose target lies inside the root is redundant, one outside it is an escape), dot-files
// and dot-folders skipped, every size bounded. It reads; it does not index.
import { constants, type Dirent } from 'node:fs';
import { open, opendir, realpath } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import type { KnowledgeDocument } from './knowledge-document.js';
import type { KnowledgeLimits } from './knowledge-limits.js';
import type { KnowledgeLog } from './knowledge-log.js';
import { documentTitle } from './document-title.js';

const documentExtension = /\.(md|txt)$/i;
const decoder = new TextDecoder('utf-8');

export async function loadDocuments(
  index: string,
  root: string,
  limits: KnowledgeLimits,
  log: KnowledgeLog,
): Promise<KnowledgeDocument[]> {
  let base: string;
  try {
    base = await realpath(root);
  } catch {
    log.warn({ index, root }, 'Knowledge index root is not readable; the index is empty');
    return [];
  }
  const documents: KnowledgeDocument[] = [];
  let totalBytes = 0;
  let limitWarned = false;
  const stop = (reason: string): void => {
    if (!limitWarned) log.warn({ index, reason }, 'Knowledge index limit reached; remaining files skipped');
    limitWarned = true;
  };

  async function walk(folder: string, depth: number): Promise<void> {
    if (depth > limits.maxDepth) {
      log.warn({ index, folder: toId(base, folder) }, 'Knowledge folder nested too deep; skipped');
      return;
    }
    const entries: Dirent[] = [];
    try {
      for await (const entry of await opendir(folder)) entries.push(entry);
    } catch {
      log.warn({ index, folder: toId(base, folder) }, 'Knowledge folder is not readable; skipped');
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (limitWarned) return;
      if (entry.name.startsWith('.')) continue;
      const path = join(folder, entry.name);
      if (entry.isDirectory()) await walk(path, depth + 1);
      else if (entry.isFile() && documentExtension.test(entry.name)) {
        if (documents.length >= limits.maxDocuments) return stop(`more than ${limits.maxDocuments} documents`);
        const id = toId(base, path);
        const bytes = await readBounded(path, limits.maxFileBytes);
        if (bytes === 'too-large') log.warn({ index, id, maxFileBytes: limits.maxFileBytes }, 'Knowledge file too large; skipped');
        else if (bytes === undefined) log.warn({ index, id }, 'Knowledge file is not a readable regular file; skipped');
        else if (totalBytes + bytes.length > limits.maxTotalBytes) return stop(`more than ${limits.maxTotalBytes} bytes`);
        else {
          totalBytes += bytes.length;
          const text = decoder.decode(bytes);
          documents.push({ id, title: documentTitle(id, text), text });
        }
      }
      // Symlinks, sockets, devices and FIFOs are never read.
    }
  }

  await walk(base, 0);
  return documents;
}

function toId(base: string, path: string): string {
  return relative(base, path).split(sep).join('/');
}

/** The file's bytes, refusing anything that became a symlink or non-regular file since listing. */
async function readBounded(path: string, maxBytes: number): Promise<Buffer | 'too-large' | undefined> {
  let handle;
  try {
    handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return undefined;
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) return undefined;
    if (stats.size > maxBytes) return 'too-large';
    let buffer = Buffer.alloc(stats.size + 1);
    let length = 0;
    for (;;) {
      if (length === buffer.length) {
        // The file grew since stat: keep reading, but never past the bound.
        if (length > maxBytes) return 'too-large';
        buffer = Buffer.concat([buffer, Buffer.alloc(maxBytes + 1 - length)]);
      }
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
    }
    return length > maxBytes ? 'too-large' : buffer.subarray(0, length);
  } catch {
    return undefined;
  } finally {
    await handle.close();
  }
}
