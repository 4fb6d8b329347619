'use client';
/** An owner's actions on one member: another role, or removal (which ends their access at once). */
import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import { Banner, Button, ConfirmDialog, Select } from '@ecf/ui';
import { MEMBER_ROLES, ROLE_LABELS, type TMemberRole } from '../lib/schemas.ts';
import { useTRPC } from '../lib/trpc/client.tsx';
import { ZChangeMemberRoleInput } from '../server/routers/members/change-member-role.schema.ts';
import { useFormErrors } from './use-form-errors.ts';

/** Another role for a member, after a confirmation naming both roles (their access changes at once). */
export function ChangeRoleForm(props: { membershipId: string; name: string; role: TMemberRole }) {
  const trpc = useTRPC();
  const router = useRouter();
  const errors = useFormErrors();
  const [saved, setSaved] = useState(false);
  const [chosen, setChosen] = useState<TMemberRole | null>(null);
  const change = useMutation(trpc.members.changeRole.mutationOptions());

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSaved(false);
    const input = errors.check(ZChangeMemberRoleInput, {
      membershipId: props.membershipId,
      role: new FormData(event.currentTarget).get('role'),
    });
    if (input === null) return;
    if (input.role === props.role) {
      errors.show({ role: `${props.name} ya tiene ese rol: elija otro.` });
      return;
    }
    setChosen(input.role);
  }

  async function confirm(role: TMemberRole) {
    try {
      await change.mutateAsync({ membershipId: props.membershipId, role });
      setSaved(true);
      router.refresh();
    } catch (error) {
      errors.fail(error, { LAST_OWNER: 'role' });
    } finally {
      setChosen(null);
    }
  }

  return (
    <>
      <form onSubmit={submit} noValidate aria-label="Cambiar el rol">
        {saved ? <Banner tone="success">Rol actualizado.</Banner> : null}
        {errors.message ? <Banner tone="danger">{errors.message}</Banner> : null}
        <Select
          label="Rol"
          name="role"
          defaultValue={props.role}
          options={MEMBER_ROLES.map((role) => ({ value: role, label: ROLE_LABELS[role] }))}
          error={errors.fieldErrors.role}
        />
        <Button type="submit" busy={change.isPending}>
          Guardar rol
        </Button>
      </form>
      <ConfirmDialog
        open={chosen !== null}
        title={`¿Cambiar el rol de ${props.name}?`}
        confirmLabel="Cambiar rol"
        busy={change.isPending}
        onCancel={() => setChosen(null)}
        onConfirm={() => {
          if (chosen !== null) void confirm(chosen);
        }}
      >
        <p>
          Pasa de <strong>{ROLE_LABELS[props.role]}</strong> a{' '}
          <strong>{chosen === null ? '' : ROLE_LABELS[chosen]}</strong>. Lo que puede ver y hacer en esta
          cuenta cambia de inmediato, en todas sus sesiones.
        </p>
      </ConfirmDialog>
    </>
  );
}

export function RemoveMemberButton(props: { membershipId: string; name: string }) {
  const trpc = useTRPC();
  const errors = useFormErrors();
  const [open, setOpen] = useState(false);
  const remove = useMutation(trpc.members.remove.mutationOptions());
  return (
    <div>
      {errors.message ? <Banner tone="danger">{errors.message}</Banner> : null}
      <Button variant="danger" onClick={() => setOpen(true)}>
        Quitar de la cuenta
      </Button>
      <ConfirmDialog
        open={open}
        title={`¿Quitar a ${props.name}?`}
        confirmLabel="Quitar"
        busy={remove.isPending}
        onCancel={() => setOpen(false)}
        onConfirm={() => {
          remove.mutateAsync({ membershipId: props.membershipId }).then(
            () => window.location.assign('/members'),
            (error: unknown) => {
              setOpen(false);
              errors.fail(error);
            },
          );
        }}
      >
        Perderá el acceso a esta cuenta de inmediato, en todas sus sesiones.
      </ConfirmDialog>
    </div>
  );
}
