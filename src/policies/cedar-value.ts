// A value in Cedar's JSON format as the policy layer builds it: records, sets, strings, Longs,
// booleans and decimals written as extension calls.
export interface CedarDecimal {
  readonly __extn: { readonly fn: 'decimal'; readonly arg: string };
}

export type CedarValue = string | number | boolean | CedarDecimal | CedarValue[] | CedarRecordValue;

export interface CedarRecordValue {
  readonly [name: string]: CedarValue;
}
