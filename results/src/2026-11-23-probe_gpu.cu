#include "lab09.cuh"
int main(){
  const int Es[]={5,12,15,16,17}; const int us[]={64,256,512};
  char msg[200]; int id=0;
  for(int e=0;e<5;e++) for(int k=0;k<3;k++) for(int rep=0;rep<2;rep++){
    lab09_cfg c={MS_CF,Es[e],us[k]}; int n=c.u*c.E;
    int32_t *keys=(int32_t*)malloc(n*4); kit_gen_array(KIT_TYPE_I32,keys,n,KIT_GEN_RANDOM,7+rep);
    if(lab09_measure(KIT_TYPE_I32,keys,n,c,msg,200)) printf("fail %s\n",msg);
    printf("launch %d: E=%d u=%d seed=%d\n",id++,c.E,c.u,7+rep); free(keys);
  }
}
