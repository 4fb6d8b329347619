'use client';
import { useMutation } from '@tanstack/react-query';
import { Button } from '@ecf/ui';
import { useTRPC } from '../lib/trpc/client.tsx';

/** Starts working in a tenant (session.switchTenant), then goes to its first page. */
export function ChooseTenantButton(props: { tenantId: string; label: string }) {
  const trpc = useTRPC();
  const choose = useMutation(trpc.session.switchTenant.mutationOptions());
  return (
    <Button
      size="small"
      variant="secondary"
      busy={choose.isPending}
      onClick={() => {
        void choose.mutateAsync({ tenantId: props.tenantId }).then(() => window.location.assign('/'));
      }}
    >
      {props.label}
    </Button>
  );
}
