// The attribute names that hold a record, or a set holding records, anywhere in a schema's contexts
// (`run`, `arguments`, and any such argument). A policy that compares a value reached through one of
// these names sees whole records, so attributes cannot be left out of its requests (policy-reads.ts).
import type { CedarType, PolicySchema } from './cedar-schema-types.js';

export function recordNamesOf(schema: PolicySchema): ReadonlySet<string> {
  const names = new Set<string>();
  for (const action of Object.values(schema.Portcullis.actions)) {
    if (action.appliesTo !== undefined) collect(action.appliesTo.context, names);
  }
  return names;
}

/** Adds the record-holding attribute names under `type`; answers whether `type` itself holds records. */
function collect(type: CedarType, names: Set<string>): boolean {
  if (type.type === 'Set') return collect(type.element, names);
  if (type.type !== 'Record') return false;
  for (const [name, attribute] of Object.entries(type.attributes)) if (collect(attribute, names)) names.add(name);
  return true;
}
