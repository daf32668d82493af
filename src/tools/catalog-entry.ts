// Projects a tool descriptor onto the wire shapes of the catalog (SPEC.md ToolCatalogEntry).
import type { Tool } from './tool.js';
import type { ToolCatalogEntry, ToolDescription } from './schemas.js';

export function toCatalogEntry(tool: Tool): ToolCatalogEntry {
  const d = tool.descriptor;
  return {
    name: d.name,
    description: d.description,
    operations: d.operations.map((op) => op.name),
    riskTier: d.riskTier,
    isReadOnly: d.isReadOnly,
    isConcurrencySafe: d.isConcurrencySafe,
    isDirectlyInvocable: d.isDirectlyInvocable,
  };
}

export function toDescription(tool: Tool): ToolDescription {
  return {
    ...toCatalogEntry(tool),
    parameters: Object.fromEntries(tool.descriptor.operations.map((op) => [op.name, op.parameters])),
  };
}
