import { Grid, TextInput } from '@mantine/core';

export type ContactField = 'phone_number' | 'address' | 'city' | 'state' | 'zip_code';

/**
 * Phone, address, city, state and zip of a person (the user form and the profile), as Grid columns.
 * `inputProps` is the form's getInputProps.
 */
export function ContactFields({ inputProps }: { inputProps: (field: ContactField) => object }) {
  return (
    <>
      <Grid.Col span={{ base: 12, sm: 6 }}>
        <TextInput label="Phone" type="tel" {...inputProps('phone_number')} />
      </Grid.Col>
      <Grid.Col span={12}>
        <TextInput label="Address" {...inputProps('address')} />
      </Grid.Col>
      <Grid.Col span={{ base: 12, sm: 5 }}>
        <TextInput label="City" {...inputProps('city')} />
      </Grid.Col>
      <Grid.Col span={{ base: 6, sm: 3 }}>
        <TextInput label="State" {...inputProps('state')} />
      </Grid.Col>
      <Grid.Col span={{ base: 6, sm: 4 }}>
        <TextInput label="Zip Code" {...inputProps('zip_code')} />
      </Grid.Col>
    </>
  );
}
