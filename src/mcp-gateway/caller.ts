// Who one gateway request is for: the authenticated principal and the HTTP request id its audit lines carry.
import type { Principal } from '../platform/auth/index.js';

export interface Caller {
  readonly principal: Principal;
  readonly requestId: string;
}
