import { useRef, useState, type FormEvent } from 'react';
import { Link } from 'wouter';
import { Camera, ImagePlus, LoaderCircle, MapPin, Store, Truck } from 'lucide-react';
import { capitalise, displayName, SELF_SERVICE_ROLES, sortRoles, type SelfServiceRole } from '@domain/roles';
import { updateNamesBodySchema, type CurrentUser } from '@domain/users';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { FormField } from '../../components/ui/form-field';
import { Input } from '../../components/ui/input';
import { toast } from '../../components/ui/use-toast';
import { PageHeading } from '../../components/page-heading';
import { fieldErrorsFromZod, focusFirstInvalid } from '../../lib/form-errors';
import { toastMutationError } from '../../lib/mutation-errors';
import { useDocumentTitle } from '../../lib/use-document-title';
import { useSignedInUser } from '../../lib/use-auth';
import { useBecomeRole } from '../../features/users/api/become-role';
import { useUpdateProfile } from '../../features/users/api/update-profile';
import { useUpdateProfileImage } from '../../features/users/api/update-profile-image';
import { RoleIcon } from '../../features/users/components/role-icon';
import { UserAvatar } from '../../features/users/components/user-avatar';
import { UploadNotices } from '../../features/uploads/components/upload-notices';
import { UploadProgress } from '../../features/uploads/components/upload-progress';
import { SINGLE_IMAGE } from '../../features/uploads/upload-rules';
import { useImageUpload } from '../../features/uploads/use-image-upload';
import { AppLayout } from '../layouts/app-layout';

/**
 * /profile (docs/product-rules.md, Account pages): names, read-only email and role, addresses,
 * roles to add.
 */
export function ProfilePage() {
  useDocumentTitle('Profile');
  const user = useSignedInUser();

  return (
    <AppLayout>
      <PageHeading title="Profile" subtitle="Manage your personal information" />
      <div className="grid gap-6 lg:grid-cols-3">
        <div className="flex flex-col gap-6 lg:col-span-2">
          <PersonalInformationCard user={user} />
        </div>
        <div className="flex flex-col gap-6">
          <RolesCard user={user} />
          <Card>
            <CardHeader>
              <CardTitle as="h2">Addresses</CardTitle>
              <CardDescription>Your delivery and pickup addresses.</CardDescription>
            </CardHeader>
            <CardContent>
              <Button asChild variant="outline" className="w-full">
                <Link href="/addresses" data-testid="link-manage-addresses">
                  <MapPin aria-hidden="true" />
                  Manage Addresses
                </Link>
              </Button>
            </CardContent>
          </Card>
        </div>
      </div>
    </AppLayout>
  );
}

/**
 * The profile picture (docs/product-rules.md, Account pages): the avatar and the "Upload photo"
 * button both open the picker; the uploaded image is then set as the picture, and the header shows
 * it too.
 */
function ProfilePhoto({ user }: { user: CurrentUser }) {
  const updateProfileImage = useUpdateProfileImage();
  const upload = useImageUpload({
    maxNumberOfFiles: SINGLE_IMAGE,
    onUploaded: (objectPath) =>
      updateProfileImage.mutate(objectPath, {
        onSuccess: () =>
          toast({ title: 'Profile photo updated', description: 'Your new photo is on your profile.' }),
        onError: (error) => toastMutationError(error, 'Failed to update profile image'),
      }),
  });
  const isBusy = upload.isUploading || updateProfileImage.isPending;
  const canPick = upload.isReady && !isBusy;
  const hasPhoto = Boolean(user.profileImageUrl);

  return (
    <div className="flex flex-col gap-3">
      <div className="flex items-center gap-4">
        <button
          type="button"
          onClick={upload.openFilePicker}
          disabled={!canPick}
          aria-label={hasPhoto ? 'Change profile photo' : 'Add a profile photo'}
          className="group relative shrink-0 rounded-full focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 focus-visible:ring-offset-card disabled:cursor-progress"
          data-testid="button-avatar"
        >
          <UserAvatar
            user={user}
            className="size-20 text-2xl transition-opacity group-hover:opacity-90 group-disabled:opacity-60"
            data-testid="img-avatar"
          />
          <span
            aria-hidden="true"
            className="absolute -right-0.5 -bottom-0.5 flex size-7 items-center justify-center rounded-full border-2 border-card bg-primary text-primary-foreground shadow-sm"
          >
            {isBusy ? <LoaderCircle className="size-3.5 animate-spin" /> : <Camera className="size-3.5" />}
          </span>
        </button>
        <div className="min-w-0 flex-1">
          <p className="truncate text-lg font-semibold" data-testid="text-display-name">
            {displayName(user)}
          </p>
          <p className="truncate text-sm text-muted-foreground">{user.email}</p>
          <Button
            variant="outline"
            size="sm"
            className="mt-2"
            onClick={upload.openFilePicker}
            disabled={!canPick}
            data-testid="button-upload-photo"
          >
            <ImagePlus aria-hidden="true" />
            {upload.isUploading
              ? 'Uploading...'
              : updateProfileImage.isPending
                ? 'Saving...'
                : 'Upload photo'}
          </Button>
        </div>
      </div>
      <input {...upload.inputProps} data-testid="input-profile-image" />
      {upload.isUploading ? <UploadProgress value={upload.progress} label="Uploading profile photo" /> : null}
      <UploadNotices notices={upload.notices} onDismiss={upload.dismissNotice} />
    </div>
  );
}

function PersonalInformationCard({ user }: { user: CurrentUser }) {
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
          <div className="grid gap-4 sm:grid-cols-2">
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
            hint="Users cannot change their own role. Please contact an administrator if you need a different role."
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

const BECOME: Record<SelfServiceRole, { label: string; description: string; icon: typeof Store }> = {
  seller: {
    label: 'Become a seller',
    description: 'List your products and sell to buyers nearby.',
    icon: Store,
  },
  driver: {
    label: 'Become a driver',
    description:
      'Deliver orders and earn money. An administrator verifies drivers before their first delivery.',
    icon: Truck,
  },
};

function RolesCard({ user }: { user: CurrentUser }) {
  const becomeRole = useBecomeRole();
  const granted = sortRoles(user.roles);
  const available = SELF_SERVICE_ROLES.filter((role) => !user.roles.includes(role));

  const become = (role: SelfServiceRole) =>
    becomeRole.mutate(role, {
      onSuccess: () =>
        toast({ title: `You are now a ${role}`, description: 'Switch roles any time from the header.' }),
      onError: (error) => toastMutationError(error, 'Failed to update role', { preferServerMessage: true }),
    });

  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2">Your Roles</CardTitle>
        <CardDescription>Switch between the roles you have from the header.</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <ul className="flex flex-wrap gap-2" aria-label="Granted roles" data-testid="list-granted-roles">
          {granted.map((role) => (
            <li key={role}>
              <Badge variant={role === user.role ? 'default' : 'secondary'}>
                <RoleIcon role={role} />
                {capitalise(role)}
                {role === user.role ? <span className="sr-only"> (current)</span> : null}
              </Badge>
            </li>
          ))}
        </ul>
        {available.map((role) => {
          const option = BECOME[role];
          return (
            <div key={role} className="flex flex-col gap-2 rounded-lg border p-4">
              <p className="text-sm text-muted-foreground">{option.description}</p>
              <Button
                variant="outline"
                onClick={() => become(role)}
                disabled={becomeRole.isPending}
                data-testid={`button-become-${role}`}
              >
                <option.icon aria-hidden="true" />
                {option.label}
              </Button>
            </div>
          );
        })}
      </CardContent>
    </Card>
  );
}
