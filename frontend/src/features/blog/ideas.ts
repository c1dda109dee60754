import type { ApiRoutes } from '@telemed/contracts';
import type { BlogCategory } from '@telemed/contracts/blog-constants';

/** What the Writing Assistant asks ideas for: the post's title and category then (and which asking it is). */
export interface IdeasFor {
  title: string;
  category: BlogCategory;
  asked: number;
}

/** The open post's title and category (all a writing model is told of the post). */
export type PostMeta = Pick<IdeasFor, 'title' | 'category'>;

/** The Writing Assistant's answer (GET /blogs/topic-ideas). */
export type IdeasAnswer = ApiRoutes['listBlogTopicIdeas']['response'];

export type Idea = IdeasAnswer['ideas'][number];

/** What the Writing Assistant asks with: the post's category, and its title when it has one. */
export function topicIdeasQuery(ideasFor: PostMeta): ApiRoutes['listBlogTopicIdeas']['query'] {
  return { category: ideasFor.category, title: ideasFor.title.trim() || undefined };
}

/** An idea's plain text as a paragraph's (HTML) text: a writing model's words never become markup in the editor. */
export function asParagraphText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
