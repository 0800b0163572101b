import { useState } from 'react';
import type { CurrentUser } from '@domain/users';
import { initialsOf } from '../lib/format';
import { cn } from '../lib/utils';

export interface UserAvatarProps {
  user: Pick<CurrentUser, 'firstName' | 'lastName' | 'email' | 'profileImageUrl'>;
  /** The picture's text alternative; empty when a label next to it already names the person. */
  alt?: string;
  /** Size and text size, e.g. "size-20 text-2xl". */
  className?: string;
  'data-testid'?: string;
}

/** The user's picture, round; their initials when there is none or it cannot be loaded. */
export function UserAvatar({ user, alt = '', className, 'data-testid': testId }: UserAvatarProps) {
  const [brokenSrc, setBrokenSrc] = useState<string | null>(null);
  const src = user.profileImageUrl;

  if (src && src !== brokenSrc) {
    return (
      <img
        src={src}
        alt={alt}
        onError={() => setBrokenSrc(src)}
        className={cn('shrink-0 rounded-full border bg-muted object-cover', className)}
        data-testid={testId}
      />
    );
  }
  return (
    <span
      {...(alt ? { role: 'img', 'aria-label': alt } : { 'aria-hidden': true })}
      className={cn(
        'flex shrink-0 items-center justify-center rounded-full bg-accent font-semibold text-accent-foreground',
        className,
      )}
      data-testid={testId ? `${testId}-initials` : undefined}
    >
      {initialsOf(user.firstName, user.lastName, user.email)}
    </span>
  );
}
