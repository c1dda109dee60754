import { z } from 'zod';
import { WritingAssistantError, type TopicIdeasRequest, type WritingAssistant, type WritingIdea } from './port';

export interface OpenAiCompatibleOptions {
  /** The API's base address, e.g. `https://api.openai.com/v1` or `http://127.0.0.1:11434/v1`: `/chat/completions` is added. */
  baseUrl: string;
  apiKey?: string;
  model: string;
  /** The whole call (connect, answer, body) is abandoned after this long. */
  timeoutMs: number;
  /** An answer longer than this is abandoned unread. */
  maxResponseBytes: number;
  fetch?: typeof fetch;
}

/** Plain text only: the ideas seed the editor's paragraph (HTML) and are shown on cards, so no markup and no controls. */
const plain = (max: number) =>
  z
    .string()
    // Control and direction-override characters are exactly what is removed here.
    // eslint-disable-next-line no-control-regex
    .transform((s) => s.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069<>]/g, '').replace(/\s+/g, ' ').trim())
    .pipe(z.string().min(1).max(max));

/** What the model must answer (inside the completion's message): a JSON object of ideas. */
const modelIdeasSchema = z.object({
  ideas: z
    .array(z.object({ title: plain(120), description: plain(300), content: plain(1200) }))
    .min(1)
    .max(10),
});

/** The part of an OpenAI chat-completions answer that is read. */
const completionSchema = z.object({
  choices: z.array(z.object({ message: z.object({ content: z.string().max(64_000) }) })).min(1),
});

/** Reads at most `limit` bytes of the body; a longer body is abandoned (its connection cancelled). */
async function boundedText(response: Response, limit: number): Promise<string> {
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > limit) {
    await response.body?.cancel().catch(() => {});
    throw new WritingAssistantError('too_large', 'The writing model answered more than allowed');
  }
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      throw new WritingAssistantError('too_large', 'The writing model answered more than allowed');
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The model's message as JSON: as is, or inside a ```json fence some models add. */
function messageJson(content: string): unknown {
  const fenced = /^\s*```(?:json)?\s*([\s\S]*?)\s*```\s*$/i.exec(content);
  return JSON.parse(fenced ? fenced[1]! : content);
}

function prompt(request: TopicIdeasRequest): string {
  const lines = [
    `Suggest ${request.count} topics for a short patient-education article written by a doctor in India.`,
    request.specialty ? `The doctor's specialty: ${request.specialty}.` : null,
    request.category ? `The article's category: ${request.category}.` : null,
    request.title ? `The article's working title: ${request.title}.` : null,
    'Answer only with a JSON object {"ideas": [{"title": string, "description": string, "content": string}]}: a title under 100 characters, a one-sentence description, and two or three sentences of plain advice as content. Plain text, no markup.',
  ];
  return lines.filter(Boolean).join('\n');
}

/**
 * A writing model behind an OpenAI-compatible chat-completions endpoint (OpenAI, Azure's compatible API, vLLM, Ollama,
 * llama.cpp's server...). Bounded in time and size, and its answer validated before anything of it is shown.
 */
export class OpenAiCompatibleWritingAssistant implements WritingAssistant {
  private readonly fetch: typeof fetch;
  private readonly endpoint: string;

  constructor(private readonly options: OpenAiCompatibleOptions) {
    this.fetch = options.fetch ?? globalThis.fetch;
    this.endpoint = `${options.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  }

  get name(): string {
    return this.options.model;
  }

  async topicIdeas(request: TopicIdeasRequest): Promise<WritingIdea[]> {
    const signal = AbortSignal.timeout(this.options.timeoutMs);
    try {
      const response = await this.fetch(this.endpoint, {
        method: 'POST',
        signal,
        redirect: 'error',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json', ...(this.options.apiKey ? { Authorization: `Bearer ${this.options.apiKey}` } : {}) },
        body: JSON.stringify({
          model: this.options.model,
          messages: [
            { role: 'system', content: 'You suggest topics for patient-education articles. You answer with JSON only.' },
            { role: 'user', content: prompt(request) },
          ],
          response_format: { type: 'json_object' },
          temperature: 0.7,
          max_tokens: 800,
        }),
      });
      if (!response.ok) {
        await response.body?.cancel().catch(() => {});
        throw new WritingAssistantError('status', `The writing model answered ${response.status}`);
      }
      const text = await boundedText(response, this.options.maxResponseBytes);
      let ideas: z.output<typeof modelIdeasSchema>['ideas'];
      try {
        const completion = completionSchema.parse(JSON.parse(text));
        ideas = modelIdeasSchema.parse(messageJson(completion.choices[0]!.message.content)).ideas;
      } catch (error) {
        throw new WritingAssistantError('invalid', 'The writing model answered something other than ideas', { cause: error });
      }
      return ideas.slice(0, request.count);
    } catch (error) {
      if (error instanceof WritingAssistantError) throw error;
      // No answer, or a body cut off by the timeout while it was being read.
      throw new WritingAssistantError(signal.aborted ? 'timeout' : 'unreachable', signal.aborted ? 'The writing model did not answer in time' : 'The writing model could not be reached', { cause: error });
    }
  }
}
