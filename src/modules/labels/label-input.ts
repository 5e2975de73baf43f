import { Errors } from '../../common/errors/domain-error';
import { isUniqueViolation } from '../../common/errors/pg-errors';

export { cleanDescription, HEX_COLOR_RE as COLOR_RE, Trim } from '../../common/http/input';

/** Colors are stored lowercase. */
export const normalizeColor = (c: string | null | undefined): string | null | undefined => (typeof c === 'string' ? c.toLowerCase() : c);

export const labelNameTaken = (name: string) => Errors.conflict(`A label named "${name}" already exists in this organization`, 'label_name_taken');

/** The case-insensitive unique index on (org_id, lower(name)) caught a lost race. */
export const isLabelNameViolation = (e: unknown): boolean => isUniqueViolation(e, 'labels_name_uq');
