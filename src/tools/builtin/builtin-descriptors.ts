// The built-in tools' catalog descriptors, in the order createBuiltinTools builds the tools, read
// without constructing any tool (no configuration, storage, indexes or workers): what the policy
// schema and `portcullis policy …` need from the built-ins. A test keeps the two lists the same.
import type { ToolDescriptor } from '../tool.js';
import { calculatorDescriptor } from './calculator/calculator-descriptor.js';
import { clockDescriptor } from './clock/clock-descriptor.js';
import { delegateTaskDescriptor } from './delegate-task/delegate-task-descriptor.js';
import { httpFetchDescriptor } from './http-fetch/http-fetch-descriptor.js';
import { jsonDescriptor } from './json/json-descriptor.js';
import { knowledgeDescriptor } from './knowledge/knowledge-descriptor.js';
import { memoryDescriptor } from './memory/memory-descriptor.js';
import { textDescriptor } from './text/text-descriptor.js';

export const builtinToolDescriptors: readonly ToolDescriptor[] = [
  clockDescriptor,
  calculatorDescriptor,
  jsonDescriptor,
  textDescriptor,
  knowledgeDescriptor,
  memoryDescriptor,
  httpFetchDescriptor,
  delegateTaskDescriptor,
];
