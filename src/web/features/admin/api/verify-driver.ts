import { useMutation, useQueryClient } from '@tanstack/react-query';
import { adminDriverSchema, type AdminDriver } from '@domain/admin';
import { apiSend } from '../../../lib/api-client';
import { invalidateAdminData } from './admin-data';

/** PATCH /api/admin/drivers/{id}/verify {isVerified}: Approve (true), Reject or Revoke (false). */
export async function verifyDriver(driverId: string, isVerified: boolean): Promise<AdminDriver> {
  return adminDriverSchema.parse(
    await apiSend('PATCH', `/api/admin/drivers/${encodeURIComponent(driverId)}/verify`, { isVerified }),
  );
}

export function useVerifyDriver(callbacks: {
  onDone: (driver: AdminDriver) => void;
  onFailed: (error: unknown) => void;
}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ driverId, isVerified }: { driverId: string; isVerified: boolean }) =>
      verifyDriver(driverId, isVerified),
    onSuccess: (driver) => {
      callbacks.onDone(driver);
      return invalidateAdminData(queryClient);
    },
    onError: (error) => callbacks.onFailed(error),
  });
}
