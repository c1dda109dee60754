import type { Config } from '../config';
import { OpenAiCompatibleWritingAssistant } from './openai-compatible';
import type { WritingAssistant } from './port';

export * from './port';
export * from './openai-compatible';

/** The configured writing model, or null (then the Writing Assistant offers the bundled ideas and says so). */
export function writingAssistantFromConfig(config: Config): WritingAssistant | null {
  if (!config.WRITING_MODEL_URL) return null;
  return new OpenAiCompatibleWritingAssistant({
    baseUrl: config.WRITING_MODEL_URL,
    apiKey: config.WRITING_MODEL_API_KEY,
    model: config.WRITING_MODEL_NAME,
    timeoutMs: config.WRITING_MODEL_TIMEOUT_MS,
    maxResponseBytes: 64 * 1024,
  });
}
