// The key two names collide under on a case-insensitive or normalizing file system (macOS, Windows):
// NFC, then case mapped through upper to lower so `ß`/`SS` and `ſ`/`s` meet. Over-folding only ever
// refuses more archives, never fewer.
export function foldEntryName(name: string): string {
  return name.normalize('NFC').toUpperCase().toLowerCase().normalize('NFC');
}
