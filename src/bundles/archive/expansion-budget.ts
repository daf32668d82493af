// The bytes actually written so far across the whole archive, shared by every entry's meter: the
// second decompression-bomb check counts output, not what the headers claim.
export interface ExpansionBudget {
  written: number;
  readonly max: number;
}
