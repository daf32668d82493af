// Start-up checks for the connection settings a provider cannot work without. The message names
// the configuration key; it never echoes a value (the key may be the secret one).
import type { ChatModelProvider } from '../platform/config/index.js';

export function requiredSetting(value: string | null, key: string, provider: ChatModelProvider): string {
  if (value === null || value.trim() === '') {
    throw new Error(`AppConfig:AI:ChatModel:${key} is required for the ${provider} chat-model provider.`);
  }
  return value;
}
