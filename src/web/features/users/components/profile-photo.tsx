import { Camera, ImagePlus, LoaderCircle } from 'lucide-react';
import { displayName } from '@domain/roles';
import type { CurrentUser } from '@domain/users';
import { Button } from '../../../components/ui/button';
import { toast } from '../../../components/ui/use-toast';
import { UserAvatar } from '../../../components/user-avatar';
import { toastMutationError } from '../../../lib/mutation-errors';
import { UploadNotices } from '../../uploads/components/upload-notices';
import { UploadProgress } from '../../uploads/components/upload-progress';
import { useImageUpload } from '../../uploads/use-image-upload';
import { useUpdateProfileImage } from '../api/update-profile-image';

/**
 * The profile picture (docs/rules/screens-buyer.md, Account pages): the avatar and the "Upload photo"
 * button both open the picker (one file, the uploader's default); the uploaded image is then set as
 * the picture, and the header shows it too.
 */
export function ProfilePhoto({ user }: { user: CurrentUser }) {
  const updateProfileImage = useUpdateProfileImage();
  const upload = useImageUpload({
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
