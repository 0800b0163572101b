import { capitalise } from '@domain/roles';
import { updateNamesBodySchema, type CurrentUser } from '@domain/users';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { FormField } from '../../../components/ui/form-field';
import { Input } from '../../../components/ui/input';
import { toast } from '../../../components/ui/use-toast';
import { toastMutationError } from '../../../lib/mutation-errors';
import { useSchemaForm } from '../../../lib/use-schema-form';
import { useUpdateProfile } from '../api/update-profile';
import { ProfilePhoto } from './profile-photo';

/**
 * The profile's Personal Information (docs/rules/screens-buyer.md, Account pages): the picture, the names
 * the user may change, and the email and role, which they may not.
 */
export function PersonalInformationCard({ user }: { user: CurrentUser }) {
  const { formRef, values, errors, setValue, handleSubmit, reset } = useSchemaForm({
    schema: updateNamesBodySchema,
    initialValues: { firstName: user.firstName ?? '', lastName: user.lastName ?? '' },
  });
  const updateProfile = useUpdateProfile();

  const isUnchanged =
    values.firstName.trim() === (user.firstName ?? '') && values.lastName.trim() === (user.lastName ?? '');

  const onSubmit = handleSubmit((body) =>
    updateProfile.mutate(body, {
      onSuccess: (saved) => {
        reset({ firstName: saved.firstName ?? '', lastName: saved.lastName ?? '' });
        toast({ title: 'Profile updated', description: 'Your name has been saved.' });
      },
      onError: (error) => toastMutationError(error, 'Failed to update profile'),
    }),
  );

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
                  value={values.firstName}
                  onChange={(event) => setValue('firstName', event.target.value)}
                  autoComplete="given-name"
                  maxLength={100}
                />
              )}
            </FormField>
            <FormField id="profile-last-name" label="Last name" error={errors.lastName}>
              {(control) => (
                <Input
                  {...control}
                  value={values.lastName}
                  onChange={(event) => setValue('lastName', event.target.value)}
                  autoComplete="family-name"
                  maxLength={100}
                />
              )}
            </FormField>
          </div>
          <FormField id="profile-email" label="Email" hint="Your sign-in email cannot be changed here.">
            {(control) => <Input {...control} type="email" value={user.email} readOnly />}
          </FormField>
          <FormField
            id="profile-role"
            label="Role"
            hint="The role you use now. Switch between your roles from the header, or add seller or driver under Your Roles. Only an administrator grants admin or gives back a role taken away."
          >
            {(control) => <Input {...control} value={capitalise(user.role)} readOnly />}
          </FormField>
          <div>
            <Button type="submit" disabled={updateProfile.isPending || isUnchanged}>
              {updateProfile.isPending ? 'Saving...' : 'Save Changes'}
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
