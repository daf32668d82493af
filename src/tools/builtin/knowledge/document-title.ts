// Title of a document: the first ATX heading of a markdown file (outside front matter and code
// fences), otherwise the file name. Setext headings and HTML headings are not recognised.

const heading = /^ {0,3}#{1,6}[ \t]+(.+?)(?:[ \t]+#+)?[ \t]*$/;
const fence = /^ {0,3}(```|~~~)/;

export function documentTitle(id: string, text: string): string {
  const fileName = id.slice(id.lastIndexOf('/') + 1);
  if (!fileName.toLowerCase().endsWith('.md')) return fileName;
  const lines = text.split(/\r?\n/);
  let i = 0;
  if (lines[0] === '---') {
    const end = lines.indexOf('---', 1);
    if (end > 0) i = end + 1;
  }
  let inFence = false;
  for (; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (fence.test(line)) inFence = !inFence;
    else if (!inFence) {
      const title = heading.exec(line)?.[1]?.trim();
      if (title) return title;
    }
  }
  return fileName;
}
