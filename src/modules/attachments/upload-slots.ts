import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/config';
import { Errors } from '../../common/errors/domain-error';

/**
 * At most UPLOAD_MAX_CONCURRENT uploads stream at once in this process; one more is refused with
 * 503 `uploads_busy` and `Retry-After: 1` before its body is read (a capacity bound shared by all
 * callers, not one caller's rate, hence not 429). Slow bodies cannot keep a slot: the body and
 * request timeouts end them (src/common/http/timeouts.ts).
 */
@Injectable()
export class UploadSlots {
  private used = 0;
  private readonly max: number;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.max = config.uploadMaxConcurrent;
  }

  /** Uploads streaming now. */
  get inUse(): number {
    return this.used;
  }

  /** Runs `upload` in a slot (503 when none is free); the slot is given back however it ends. */
  async run<T>(upload: () => Promise<T>): Promise<T> {
    if (this.used >= this.max) throw Errors.busy('Too many uploads in progress; retry shortly', 'uploads_busy', 1);
    this.used++;
    try {
      return await upload();
    } finally {
      this.used--;
    }
  }
}
