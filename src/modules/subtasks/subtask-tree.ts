import { Errors } from '../../common/errors/domain-error';

/** Levels an issue tree may have (a root plus four levels of subtasks). */
export const MAX_DEPTH = 5;

/** 400 when putting a subtree of `height` levels under `parentDepth` exceeds MAX_DEPTH. */
export function assertDepth(parentDepth: number, height: number): void {
  if (parentDepth + height > MAX_DEPTH) {
    throw Errors.validation(`Subtasks nest at most ${MAX_DEPTH} levels deep (this would make ${parentDepth + height})`, {
      code_detail: 'subtask_depth_exceeded',
    });
  }
}
