import type { BlogCategory } from '@telemed/contracts/blog-constants';

/** What the Writing Assistant asks ideas for: the post's title and category then (and which asking it is). */
export interface IdeasFor {
  title: string;
  category: BlogCategory;
  asked: number;
}

/** The open post's title and category (all a writing model is told of the post). */
export type PostMeta = Pick<IdeasFor, 'title' | 'category'>;

export interface IdeasAnswer {
  source: 'bundled' | 'model';
  notice: string | null;
  ideas: Array<{ id: string; title: string; description: string; content: string }>;
}

export type Idea = IdeasAnswer['ideas'][number];

export function topicIdeasPath(ideasFor: PostMeta): string {
  const query = new URLSearchParams({ category: ideasFor.category });
  if (ideasFor.title.trim()) query.set('title', ideasFor.title.trim());
  return `/blogs/topic-ideas?${query.toString()}`;
}

/** An idea's plain text as a paragraph's (HTML) text: a writing model's words never become markup in the editor. */
export function asParagraphText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
