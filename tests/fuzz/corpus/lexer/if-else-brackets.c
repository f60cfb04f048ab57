{
#if
}
#else
}