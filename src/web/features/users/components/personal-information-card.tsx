import { useRef, useState, type FormEvent } from 'react';
import { capitalise } from '@domain/roles';
import { updateNamesBodySchema, type CurrentUser } from '@domain/users';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { FormField } from '../../../components/ui/form-field';
import { Input } from '../../../components/ui/input';
import { toast } from '../../../components/ui/use-toast';
import { fieldErrorsFromZod, focusFirstInvalid } from '../../../lib/form-errors';
import { toastMutationError } from '../../../lib/mutation-errors';
import { useUpdateProfile } from '../api/update-profile';
import { ProfilePhoto } from './profile-photo';

/**
 * The profile's Personal Information (docs/rules/screens-buyer.md, Account pages): the picture, the names
 * the user may change, and the email and role, which they may not.
 */
export function PersonalInformationCard({ user }: { user: CurrentUser }) {
  const formRef = useRef<HTMLFormElement>(null);
  const [firstName, setFirstName] = useState(user.firstName ?? '');
  const [lastName, setLastName] = useState(user.lastName ?? '');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const updateProfile = useUpdateProfile();

  const isUnchanged =
    firstName.trim() === (user.firstName ?? '') && lastName.trim() === (user.lastName ?? '');

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const parsed = updateNamesBodySchema.safeParse({ firstName, lastName });
    if (!parsed.success) {
      setErrors(fieldErrorsFromZod(parsed.error));
      // Wait for the messages to render before moving focus to the first one.
      requestAnimationFrame(() => focusFirstInvalid(formRef.current));
      return;
    }
    setErrors({});
    updateProfile.mutate(parsed.data, {
      onSuccess: (saved) => {
        setFirstName(saved.firstName ?? '');
        setLastName(saved.lastName ?? '');
        toast({ title: 'Profile updated', description: 'Your name has been saved.' });
      },
      onError: (error) => toastMutationError(error, 'Failed to update profile'),
    });
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2">Personal Information</CardTitle>
        <CardDescription>How sellers, drivers and buyers see you on your orders.</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-6">
        <ProfilePhoto user={user} />

        <form
          ref={formRef}
          noValidate
          onSubmit={onSubmit}
          className="flex flex-col gap-4"
          aria-label="Your name"
        >
          <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
            <FormField id="profile-first-name" label="First name" error={errors.firstName}>
              {(control) => (
                <Input
                  {...control}
                  value={firstName}
                  onChange={(event) => setFirstName(event.target.value)}
                  autoComplete="given-name"
                  maxLength={100}
                  data-testid="input-first-name"
                />
              )}
            </FormField>
            <FormField id="profile-last-name" label="Last name" error={errors.lastName}>
              {(control) => (
                <Input
                  {...control}
                  value={lastName}
                  onChange={(event) => setLastName(event.target.value)}
                  autoComplete="family-name"
                  maxLength={100}
                  data-testid="input-last-name"
                />
              )}
            </FormField>
          </div>
          <FormField id="profile-email" label="Email" hint="Your sign-in email cannot be changed here.">
            {(control) => (
              <Input {...control} type="email" value={user.email} readOnly data-testid="input-email" />
            )}
          </FormField>
          <FormField
            id="profile-role"
            label="Role"
            hint="The role you use now. Switch between your roles from the header, or add seller or driver under Your Roles. Only an administrator grants admin or gives back a role taken away."
          >
            {(control) => (
              <Input {...control} value={capitalise(user.role)} readOnly data-testid="input-role" />
            )}
          </FormField>
          <div>
            <Button
              type="submit"
              disabled={updateProfile.isPending || isUnchanged}
              data-testid="button-save-profile"
            >
              {updateProfile.isPending ? 'Saving...' : 'Save Changes'}
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
