// XML 1.0 text and attribute escaping. Characters XML 1.0 cannot carry at all (most C0 controls, lone
// surrogates, U+FFFE/U+FFFF) are replaced with U+FFFD rather than producing a document parsers reject.
const NOT_XML_CHAR = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;
const ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

export function xmlText(value: string): string {
  return value.replace(NOT_XML_CHAR, '\uFFFD').replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

/** Attribute values additionally keep line breaks and tabs (parsers would normalise them to spaces). */
export function xmlAttribute(value: string): string {
  return xmlText(value).replace(/\n/g, '&#10;').replace(/\r/g, '&#13;').replace(/\t/g, '&#9;');
}
