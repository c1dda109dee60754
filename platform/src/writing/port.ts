/**
 * The Writing Assistant's port (issue 16): topic ideas for a doctor's next post. Only what is needed to suggest a topic
 * is ever sent: the doctor's specialty and the post's title and category; never a patient's data, a name or a note.
 */
export interface TopicIdeasRequest {
  specialty: string | null;
  /** The post being written, if it has a title yet. */
  title: string | null;
  /** The post's category's name (e.g. 'Nutrition'). */
  category: string | null;
  /** How many ideas to ask for. */
  count: number;
}

export interface WritingIdea {
  title: string;
  description: string;
  content: string;
}

export interface WritingAssistant {
  /** Shown with the ideas, e.g. the model's name. */
  readonly name: string;
  /** Ideas from the model; throws WritingAssistantError when it is slow, unreachable or answers something else. */
  topicIdeas(request: TopicIdeasRequest): Promise<WritingIdea[]>;
}

export class WritingAssistantError extends Error {
  constructor(
    readonly reason: 'timeout' | 'unreachable' | 'status' | 'too_large' | 'invalid',
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'WritingAssistantError';
  }
}
