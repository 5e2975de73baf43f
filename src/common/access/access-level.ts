/** A member's or team's level on a project (`project_members.access_level`). */
export type AccessLevel = 'view' | 'edit' | 'admin';
