/** Injected time source, so time-dependent rules are testable without sleeping. */
export abstract class Clock {
  abstract now(): Date;
}
export class SystemClock extends Clock {
  now(): Date {
    return new Date();
  }
}
