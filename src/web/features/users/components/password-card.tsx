import { useId, useRef, useState, type FormEvent } from 'react';
import { changePasswordBodySchema } from '@domain/accounts';
import type { CurrentUser } from '@domain/users';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { FormField } from '../../../components/ui/form-field';
import { Input } from '../../../components/ui/input';
import { toast } from '../../../components/ui/use-toast';
import { fieldErrorsOf } from '../../../lib/api-client';
import { fieldErrorsFromZod, focusFirstInvalid } from '../../../lib/form-errors';
import { toastMutationError } from '../../../lib/mutation-errors';
import { useChangePassword, useResendVerification } from '../api/account';

/**
 * The profile's Password card, for local accounts only (docs/decisions/0019-reaching-people.md,
 * Accounts): whether the email is confirmed, with a new link when not, and the change of password,
 * which signs every other device out.
 */
export function PasswordCard({ user }: { user: CurrentUser }) {
  return user.localAccount ? <PasswordForm user={user} /> : null;
}

function PasswordForm({ user }: { user: CurrentUser }) {
  const formRef = useRef<HTMLFormElement>(null);
  const [currentPassword, setCurrentPassword] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const change = useChangePassword();
  const resend = useResendVerification();

  const showErrors = (fields: Record<string, string>) => {
    setErrors(fields);
    requestAnimationFrame(() => focusFirstInvalid(formRef.current));
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const parsed = changePasswordBodySchema.safeParse({ currentPassword, newPassword });
    const fields = parsed.success ? {} : fieldErrorsFromZod(parsed.error);
    if (confirmPassword !== newPassword) fields.confirmPassword = 'The passwords do not match';
    if (!parsed.success || Object.keys(fields).length > 0) return showErrors(fields);
    setErrors({});
    change.mutate(parsed.data, {
      onSuccess: () => {
        setCurrentPassword('');
        setNewPassword('');
        setConfirmPassword('');
        toast({ title: 'Password changed', description: 'Your other devices were signed out.' });
      },
      onError: (error) => {
        const serverFields = fieldErrorsOf(error);
        if (serverFields) showErrors(serverFields);
        else toastMutationError(error, 'Failed to change password');
      },
    });
  };

  const sendLink = () =>
    resend.mutate(user.email, {
      onSuccess: () => toast({ title: 'Verification email sent', description: `Check ${user.email}.` }),
      onError: (error) => toastMutationError(error, 'Failed to send the verification email'),
    });

  const titleId = useId();
  return (
    <Card role="region" aria-labelledby={titleId}>
      <CardHeader>
        <CardTitle id={titleId} as="h2">
          Password
        </CardTitle>
        <CardDescription>Changing it signs you out on every other device.</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        {user.emailVerified ? (
          <p className="text-sm text-muted-foreground">Your email address is verified.</p>
        ) : (
          <div className="flex flex-col items-start gap-2">
            <p className="text-sm">Your email address is not verified yet.</p>
            <Button type="button" variant="outline" size="sm" onClick={sendLink} disabled={resend.isPending}>
              Resend verification email
            </Button>
          </div>
        )}
        <form
          ref={formRef}
          noValidate
          onSubmit={onSubmit}
          className="flex flex-col gap-4"
          aria-label="Change password"
        >
          <FormField id="password-current" label="Current password" error={errors.currentPassword}>
            {(control) => (
              <Input
                {...control}
                type="password"
                autoComplete="current-password"
                value={currentPassword}
                onChange={(event) => setCurrentPassword(event.target.value)}
              />
            )}
          </FormField>
          <FormField
            id="password-new"
            label="New password"
            hint="At least 8 characters."
            error={errors.newPassword}
          >
            {(control) => (
              <Input
                {...control}
                type="password"
                autoComplete="new-password"
                value={newPassword}
                onChange={(event) => setNewPassword(event.target.value)}
              />
            )}
          </FormField>
          <FormField id="password-confirm" label="Confirm new password" error={errors.confirmPassword}>
            {(control) => (
              <Input
                {...control}
                type="password"
                autoComplete="new-password"
                value={confirmPassword}
                onChange={(event) => setConfirmPassword(event.target.value)}
              />
            )}
          </FormField>
          <div>
            <Button type="submit" disabled={change.isPending}>
              {change.isPending ? 'Saving...' : 'Change Password'}
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
