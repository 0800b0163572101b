import { ROLES, capitalise, type Role } from '@domain/roles';

export const ROLE_OPTIONS: { value: Role; label: string }[] = ROLES.map((role) => ({
  value: role,
  label: capitalise(role),
}));
