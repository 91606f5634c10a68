export { FieldError, FormTextField, invalidProps, SelectField, type SelectFieldProps } from './fields';
export { FormDialog, type FormDialogProps } from './form-dialog';
