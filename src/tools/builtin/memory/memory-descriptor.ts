// The memory tool's catalog descriptor: flags per DESIGN §4 and its operations' parameter schemas.
// It holds no behaviour, so the catalog's schema can be read without building the tool.
import type { ToolDescriptor } from '../../tool.js';
import { memoryOperations } from './memory-operations.js';

export const memoryDescriptor: ToolDescriptor = {
  name: 'memory',
  description: 'Remember small JSON values between calls, private to you, optionally expiring.',
  operations: memoryOperations,
  riskTier: 'Low',
  isReadOnly: false,
  isConcurrencySafe: false,
  isDirectlyInvocable: true,
  reachesNetwork: false,
};
