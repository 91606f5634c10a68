export { TransferDevicesDialog } from './ui/transfer-devices-dialog';
export { transferOpened } from './model';
