// FerryVerify
