// A chat model metered for one account (DESIGN §16): each call is checked against the account's spend
// limits before anything is sent — refused with ChatModelError `spend-limit` and the caller-safe
// sentence once a limit is reached — and its reported usage is counted when it finishes, before the
// finish part reaches the caller (so the next call's check sees it). A call that crosses a limit
// completes. Families wrap the host's one model per run; nothing else changes for them.
import { SPEND_LIMIT_REACHED, type SpendAccount, type SpendLedger } from '../platform/spend/index.js';
import { ChatModelError, type ChatModel } from './chat-model.js';

export function meterChatModel(model: ChatModel, ledger: SpendLedger, account: SpendAccount): ChatModel {
  return {
    specificationVersion: model.specificationVersion,
    provider: model.provider,
    modelId: model.modelId,
    async *stream(request) {
      if (!(await ledger.allows(account))) throw new ChatModelError('spend-limit', SPEND_LIMIT_REACHED);
      for await (const part of model.stream(request)) {
        if (part.type === 'finish') await ledger.record(account, part.usage, model.modelId);
        yield part;
      }
    },
  };
}

/** True for the refusal a metered model gives once a spend limit is reached. */
export const isSpendLimit = (error: unknown): boolean => error instanceof ChatModelError && error.code === 'spend-limit';
