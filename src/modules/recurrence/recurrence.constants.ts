export const RECURRENCE_QUEUE = 'recurrence';
export const RECURRENCE_SWEEP = 'recurrence-sweep';
