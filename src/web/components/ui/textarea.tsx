import type { ComponentProps } from 'react';
import { cn } from '../../lib/utils';
import { fieldControlClasses } from './input';

export function Textarea({ className, ...props }: ComponentProps<'textarea'>) {
  return <textarea className={cn(fieldControlClasses, 'flex min-h-28', className)} {...props} />;
}
