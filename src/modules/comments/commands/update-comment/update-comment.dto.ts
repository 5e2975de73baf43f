import { Allow } from 'class-validator';

export class UpdateCommentDto {
  /** New body: Markdown/plain text or rich-text HTML (at most 100000 characters); stored as sanitized HTML */
  @Allow()
  body: string;
}
