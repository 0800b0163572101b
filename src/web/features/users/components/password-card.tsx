import { useId } from 'react';
import { changePasswordBodySchema } from '@domain/accounts';
import type { CurrentUser } from '@domain/users';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { FormField } from '../../../components/ui/form-field';
import { Input } from '../../../components/ui/input';
import { toast } from '../../../components/ui/use-toast';
import { toastMutationError } from '../../../lib/mutation-errors';
import { useSchemaForm } from '../../../lib/use-schema-form';
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
  const { formRef, values, errors, setValue, handleSubmit, showServerErrors, reset } = useSchemaForm({
    schema: changePasswordBodySchema,
    initialValues: { currentPassword: '', newPassword: '', confirmPassword: '' },
    check: ({ newPassword, confirmPassword }): Record<string, string> =>
      confirmPassword === newPassword ? {} : { confirmPassword: 'The passwords do not match' },
  });
  const change = useChangePassword();
  const resend = useResendVerification();

  const onSubmit = handleSubmit((body) =>
    change.mutate(body, {
      onSuccess: () => {
        reset();
        toast({ title: 'Password changed', description: 'Your other devices were signed out.' });
      },
      onError: (error) => {
        if (!showServerErrors(error)) toastMutationError(error, 'Failed to change password');
      },
    }),
  );

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
                value={values.currentPassword}
                onChange={(event) => setValue('currentPassword', event.target.value)}
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
                value={values.newPassword}
                onChange={(event) => setValue('newPassword', event.target.value)}
              />
            )}
          </FormField>
          <FormField id="password-confirm" label="Confirm new password" error={errors.confirmPassword}>
            {(control) => (
              <Input
                {...control}
                type="password"
                autoComplete="new-password"
                value={values.confirmPassword}
                onChange={(event) => setValue('confirmPassword', event.target.value)}
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
