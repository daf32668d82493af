// The part of Cedar's JSON schema format the policy layer writes (policy-schema.ts) and walks when
// it maps a call's arguments (policy-arguments.ts): one description of both, so they cannot drift.
export type CedarScalarType =
  | { readonly type: 'String' }
  | { readonly type: 'Long' }
  | { readonly type: 'Boolean' }
  | { readonly type: 'Extension'; readonly name: 'decimal' };

export interface CedarSetType {
  readonly type: 'Set';
  readonly element: CedarType;
}

export interface CedarRecordType {
  readonly type: 'Record';
  readonly attributes: Readonly<Record<string, CedarAttribute>>;
}

export type CedarType = CedarScalarType | CedarSetType | CedarRecordType;

/** A record attribute: its type and whether every value has it (Cedar's default is required). */
export type CedarAttribute = CedarType & { readonly required: boolean };

export interface CedarEntityType {
  readonly memberOfTypes?: readonly string[];
  readonly shape?: CedarRecordType;
  readonly tags?: CedarType;
}

export interface CedarActionType {
  readonly memberOf?: readonly { readonly id: string }[];
  readonly appliesTo?: {
    readonly principalTypes: readonly string[];
    readonly resourceTypes: readonly string[];
    readonly context: CedarRecordType;
  };
}

/** The schema of DESIGN §18: one namespace, `Portcullis`. */
export interface PolicySchema {
  readonly Portcullis: {
    readonly entityTypes: Readonly<Record<string, CedarEntityType>>;
    readonly actions: Readonly<Record<string, CedarActionType>>;
  };
}
