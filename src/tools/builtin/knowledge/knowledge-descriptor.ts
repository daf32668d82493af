// The knowledge tool's catalog descriptor: flags per DESIGN §4 and its operations' parameter schemas.
// It holds no behaviour, so the catalog's schema can be read without building the tool.
import type { ToolDescriptor } from '../../tool.js';
import { knowledgeOperations } from './knowledge-operations.js';

export const knowledgeDescriptor: ToolDescriptor = {
  name: 'knowledge',
  description: 'Search the host’s document indexes and read documents by id.',
  operations: knowledgeOperations,
  riskTier: 'Low',
  isReadOnly: true,
  isConcurrencySafe: true,
  isDirectlyInvocable: true,
  reachesNetwork: false,
};
