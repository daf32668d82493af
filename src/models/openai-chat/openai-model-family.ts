// What an OpenAI model id says about the parameters it takes, by the AI SDK's rules (its
// `getOpenAILanguageModelCapabilities`), so a model keeps the request shape it had through the SDK:
// reasoning models (o-series, gpt-5 and later except the gpt-N-chat ids) get system text as a
// `developer` message, `max_completion_tokens` instead of `max_tokens`, and no temperature; the
// search-preview models take no temperature either. Other OpenAI-compatible servers' ids match none.
export interface OpenAIModelFamily {
  readonly reasoning: boolean;
  readonly acceptsTemperature: boolean;
}

export function openAIModelFamily(modelId: string): OpenAIModelFamily {
  const reasoning = isOSeries(modelId) || isGptReasoning(modelId);
  const searchPreview = modelId.startsWith('gpt-4o-search-preview') || modelId.startsWith('gpt-4o-mini-search-preview');
  return { reasoning, acceptsTemperature: !reasoning && !searchPreview };
}

function isOSeries(modelId: string): boolean {
  return /^o(\d+)(?:-|$)/.test(modelId);
}

function isGptReasoning(modelId: string): boolean {
  const match = /^gpt-(\d+)(?:\.(\d+))?(?:-(.+))?$/.exec(modelId);
  if (match === null || Number(match[1]) < 5) return false;
  const chatModel = match[2] === undefined && (match[3]?.startsWith('chat') ?? false);
  return !chatModel;
}
