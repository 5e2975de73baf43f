export const MAINTENANCE_QUEUE = 'maintenance';
export const PURGE_EXPIRED_SESSIONS = 'purge-expired-sessions';
